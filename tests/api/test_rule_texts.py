"""Rule texts over real HTTP: `/games/{game}/rules`, `/games/{game}/rules/{rule_id}`, and the
`rule_title` beside `rule` in an illegal move's problem document (issue 12)."""

from __future__ import annotations

import httpx

from .support import bearer, create

PROBLEM = "application/problem+json"


def test_a_games_rules_list_every_cited_id_with_title_and_text(client: httpx.Client) -> None:
    listed = client.get("/games/test-dicevote/rules")
    assert listed.status_code == 200
    body = listed.json()
    assert body["game"] == "test-dicevote"
    assert [rule["id"] for rule in body["rules"]] == ["TG-1.2", "TG-2.1", "POSITION", "RULING"]
    assert all(rule["title"] and rule["text"] for rule in body["rules"])
    assert {rule["id"]: rule["game"] for rule in body["rules"]}["RULING"] is None  # the kernel's, any game's
    carcassonne = client.get("/games/carcassonne/rules").json()["rules"]
    ids = [rule["id"] for rule in carcassonne]
    assert "CB-3.2" in ids and "BT-6.2" in ids and ids.index("CB-3.2") < ids.index("CB-3.4")


def test_one_rule_by_id_in_any_case(client: httpx.Client) -> None:
    rule = client.get("/games/carcassonne/rules/cb-3.2")
    assert rule.status_code == 200
    assert rule.json() == {**rule.json(), "id": "CB-3.2", "title": "Matching edges", "game": "carcassonne"}
    assert "edge" in rule.json()["text"] or "side" in rule.json()["text"]
    assert client.get("/games/circus-train/rules/RULING").json()["title"] == "Arbiter's penalty"


def test_an_unknown_rule_is_a_404_problem_with_suggestions(client: httpx.Client) -> None:
    unknown = client.get("/games/carcassonne/rules/CB-3.9")
    assert unknown.status_code == 404 and unknown.headers["content-type"] == PROBLEM
    problem = unknown.json()
    assert problem["code"] == "unknown-rule" and "CB-3.2" in problem["suggestions"]
    assert "did you mean" in problem["detail"]
    elsewhere = client.get("/games/circus-train/rules/CB-3.2").json()
    assert elsewhere["code"] == "unknown-rule" and "rule of carcassonne" in elsewhere["detail"]
    no_game = client.get("/games/chess/rules/CB-3.2")
    assert no_game.status_code == 404 and no_game.json()["code"] == "unknown-game"
    assert client.get("/games/chess/rules").json()["code"] == "unknown-game"
    assert client.get("/games/carcassonne/rules/" + "X" * 40).status_code == 422


def test_an_illegal_moves_problem_names_the_rules_title_beside_its_id(client: httpx.Client) -> None:
    match = create(client)
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    seat = decision["decision"]["seats"][0]
    illegal = client.post(match.path("/moves"), headers=bearer(match.seat(seat)),
                          json={"move": {"type": "play", "card": 99}})
    assert illegal.status_code == 422 and illegal.headers["content-type"] == PROBLEM
    problem = illegal.json()
    assert (problem["rule"], problem["rule_title"]) == ("TG-1.2", "Play, roll or pass")
    assert problem["code"] == "illegal-move" and "hand" in problem["reason"]
    vote = client.post(match.path("/moves"), headers=bearer(match.seat(seat)),
                       json={"move": {"type": "vote", "choice": "high"}}).json()
    assert (vote["rule"], vote["rule_title"]) == ("TG-2.1", "The secret vote")


def test_the_openapi_document_describes_the_rule_routes(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    one = spec["paths"]["/games/{game}/rules/{rule_id}"]["get"]
    assert "404" in one["responses"] and "422" in one["responses"]
    assert "suggestions" in one["description"]
    assert "/games/{game}/rules" in spec["paths"]
    assert "rule_title" in spec["components"]["schemas"]["Problem"]["properties"]
    assert "title" in spec["components"]["schemas"]["RuleTextOut"]["properties"]
