"""`flask --app app replay FILE` through Flask's CLI runner."""
import json

from app import create_app


def run(tmp_path, text):
    path = tmp_path / "match.json"
    path.write_text(text)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "test"})
    return app.test_cli_runner().invoke(args=["replay", str(path)])


def test_replay_prints_the_sheet(tmp_path):
    doc = {"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 18}]}
    result = run(tmp_path, json.dumps(doc))
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out["games"][0]["scores"] == {"Ana": 18, "Ben": 0}
    assert out["hands"][0]["games"] == [1]


def test_refusal_is_one_line_naming_hand_and_field(tmp_path):
    doc = {"players": ["Ana", "Ben"], "hands": [{"draw": True},
           {"knocker": "Ana", "knocker_deadwood": 11, "opponent_deadwood": 30}]}
    result = run(tmp_path, json.dumps(doc))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "hand 2" in result.stderr and "knocker_deadwood" in result.stderr


def test_not_json_is_refused(tmp_path):
    result = run(tmp_path, "{not json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "JSON" in result.stderr


def test_a_key_given_twice_is_refused_naming_it_and_where(tmp_path):
    # json keeps the last of two equal keys: 250 would win silently, so the file is refused instead
    text = '{"players": ["Ana", "Ben"], "rules": {"target": 100, "target": 250}, "hands": []}'
    result = run(tmp_path, text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "rules.target: is given twice; each key may appear once in an object\n"
    text = '{"players": ["Ana", "Ben"], "hands": [{"draw": true}, {"winner": "Ana", "points": 9, "points": 90}]}'
    result = run(tmp_path, text)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("hand 2, points: is given twice")
    result = run(tmp_path, '{"players": ["Ana", "Ben"], "players": ["Ana", "Cy"]}')
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("players: is given twice")


def test_equal_keys_in_different_objects_are_kept(tmp_path):
    doc = {"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 18}, {"winner": "Ben", "points": 5}]}
    result = run(tmp_path, json.dumps(doc))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"][0]["scores"] == {"Ana": 18, "Ben": 5}
