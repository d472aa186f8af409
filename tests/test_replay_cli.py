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
