"""A hosted server's pages for the three browsers that reach it, on both engines (the `database` fixture).

The PostgreSQL half once missed the front page: a browser that remembers no table asked for the tables of
an empty list, `IN ()`, which SQLite takes and PostgreSQL refuses, so nobody could start a table.
The `hosted` app is conftest.py's.
"""
from casefiles import case
from webutil import hidden, import_match, start_table


def test_a_new_browser_sees_the_front_page_and_starts_a_table(hosted):
    new = hosted.test_client()
    front = new.get("/")
    assert front.status_code == 200, front.get_data(as_text=True)[:500]
    assert 'name="table_name"' in front.get_data(as_text=True)
    table = start_table(new, "Thursday club")
    page = new.get(table)
    assert page.status_code == 200 and "Thursday club" in page.get_data(as_text=True)


def test_a_returning_browser_finds_its_tables_listed(hosted):
    browser = hosted.test_client()
    first, second = start_table(browser, "Kitchen"), start_table(browser, "Club room")
    front = browser.get("/").get_data(as_text=True)
    assert first in front and second in front
    assert front.index(second) < front.index(first)  # the last opened first
    stranger = hosted.test_client().get("/").get_data(as_text=True)
    assert first not in stranger and second not in stranger


def test_a_spectator_of_a_hosted_table_reads_the_match(hosted):
    player = hosted.test_client()
    table = start_table(player, "Kitchen")
    match_id = import_match(player, case("seed001-ana-ben"), table)
    join = player.get(f"{table}matches/{match_id}/join").get_data(as_text=True)
    view = "/view/" + join.split("/view/")[1].split('"')[0]
    spectator = hosted.test_client()
    for address in (view, f"{view}/sheet", f"{view}/big"):
        answer = spectator.get(address)
        assert answer.status_code == 200, (address, answer.status_code)
        assert "Ana" in answer.get_data(as_text=True)
    front = spectator.get("/")  # watching a table does not list it: the viewer is no player of it
    assert front.status_code == 200 and table not in front.get_data(as_text=True)
    assert 'name="csrf_token"' in front.get_data(as_text=True) and hidden(front.get_data(as_text=True), "csrf_token")
