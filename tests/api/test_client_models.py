"""The client's models (clients/citadel_client/models.py) mirror the API's contract
(openapi/openapi.json): every decision kind and command type, with the same field names, the same
required fields for what the client sends, and answers that tolerate fields a newer server adds."""

from __future__ import annotations

import json
from typing import get_args

import msgspec
import pytest

from clients.citadel_client import cards, models
from domain.registry import GAMES
from tests.conftest import ROOT

DOC = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SCHEMAS = DOC["components"]["schemas"]


def _refs(one_of: list[dict]) -> list[str]:
    return [r["$ref"].rsplit("/", 1)[-1] for r in one_of]


def _tagged(union: object) -> dict[str, type[msgspec.Struct]]:
    return {t.__struct_config__.tag: t for t in get_args(union)}


def _fields(t: type[msgspec.Struct]) -> dict[str, msgspec.structs.FieldInfo]:
    return {f.encode_name: f for f in msgspec.structs.fields(t)}


OPTIONS = _refs(SCHEMAS["Decision"]["properties"]["options"]["oneOf"])
BOARD_COMMANDS = {t.__name__ for t in get_args(GAMES["board"].command_type)}
"""The client plays the board game: the document also lists the other hosted games' commands."""
COMMANDS = [name for name in _refs(SCHEMAS["Command"]["oneOf"]) if name in BOARD_COMMANDS]


def _tag(schema: dict, field: str) -> str:
    """The one value of a tagged schema's tag field (msgspec writes it as a one-value ``enum``)."""
    (value,) = schema["properties"][field]["enum"]
    return value


@pytest.mark.parametrize("name", OPTIONS)
def test_each_decision_kind_has_options_with_the_api_fields(name):
    schema = SCHEMAS[name]
    kind = _tag(schema, "kind")
    ours = _tagged(models.DecisionOptions)
    assert kind in ours, f"the client has no options for decision kind {kind}"
    assert set(_fields(ours[kind])) == set(schema["properties"]) - {"kind"}
    assert ours[kind].__struct_config__.tag_field == "kind"


def test_the_client_knows_no_decision_kind_the_api_lacks():
    kinds = {_tag(SCHEMAS[n], "kind") for n in OPTIONS}
    assert set(_tagged(models.DecisionOptions)) == kinds


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_has_the_api_fields_and_required_ones(name):
    schema = SCHEMAS[name]
    tag = _tag(schema, "type")
    ours = _tagged(models.PlayerCommand)
    assert tag in ours, f"the client cannot send {tag}"
    fields = _fields(ours[tag])
    assert set(fields) == set(schema["properties"]) - {"type"}
    required = {n for n, f in fields.items() if f.required}
    assert required == set(schema["required"]) - {"type"}
    assert ours[tag].__struct_config__.tag_field == "type"


def test_the_client_sends_no_command_the_api_lacks():
    tags = {_tag(SCHEMAS[n], "type") for n in COMMANDS}
    assert set(_tagged(models.PlayerCommand)) == tags


@pytest.mark.parametrize(
    "model, schema",
    [
        (models.Decision, "Decision"),
        (models.DecisionsOut, "DecisionsOut"),
        (models.Waiting, "Waiting"),
        (models.Problem, "Problem"),
        (models.FieldError, "FieldError"),
        (models.GameCreatedOut, "GameCreatedOut"),
        (models.SeatOut, "SeatOut"),
        (models.CommandAccepted, "CommandAccepted"),
        (models.JudgeActionOut, "JudgeActionOut"),
        (models.EventOut, "EventOut"),
        (models.Envelope, "Envelope"),
        (models.ExportOut, "ExportOut"),
        (models.MarchOrderOptions, "MarchOrderOptions"),
        (models.ConsolidateOrderOptions, "ConsolidateOrderOptions"),
        (models.MusterAreaOptions, "MusterAreaOptions"),
        (models.UnitCounts, "UnitCounts"),
        (models.Recruit, "Recruit"),
        (models.JoinBody, "JoinBody"),
        (models.GameSummary, "GameSummary"),
        (models.GameListOut, "GameListOut"),
        (models.InvitationOut, "InvitationOut"),
        (models.CreateGameBody, "BoardCreateBody"),
        (models.LogOut, "LogOut"),
        (models.LogLine, "LogLine"),
        (models.SigningKeyOut, "SigningKeyOut"),
    ],
)
def test_the_other_models_have_the_api_fields(model, schema):
    assert set(_fields(model)) == set(SCHEMAS[schema]["properties"])


@pytest.mark.parametrize(
    "model, schema", [(models.GameView, "BoardView"), (models.SeatView, "board_redaction_SeatView")]
)
def test_the_view_models_name_only_fields_of_the_api(model, schema):
    assert set(_fields(model)) <= set(SCHEMAS[schema]["properties"])


def test_answers_tolerate_fields_a_newer_server_adds():
    body = {
        "game_id": "g_1",
        "version": 3,
        "phase": "planning",
        "step": "assign_orders",
        "new_top_level": {"x": 1},
        "waiting_for": [{"seat_id": "s1", "house": "stark", "kind": "assign_orders", "deadline": None, "new": 1}],
        "decisions": [
            {
                "seat_id": "s1",
                "house": "stark",
                "commands": ["assign_orders"],
                "deadline": None,
                "default": "no orders",
                "new": True,
                "options": {
                    "kind": "bid",
                    "bidding": "iron_throne",
                    "max": 5,
                    "track": "iron_throne",
                    "wildling_strength": None,
                    "new": [1, 2],
                },
            }
        ],
    }
    out = msgspec.json.decode(json.dumps(body), type=models.DecisionsOut)
    assert out.version == 3 and out.waiting_for[0].seat_id == "s1"
    assert isinstance(out.decisions[0].options, models.BidOptions) and out.decisions[0].options.max == 5
    problem = {"type": "t", "title": "Conflict", "status": 409, "detail": "d", "code": "stale_version", "new": 1}
    assert msgspec.json.decode(json.dumps(problem), type=models.Problem).code == "stale_version"


def test_commands_encode_as_the_api_documents():
    enc = msgspec.json.encode
    assert json.loads(enc(models.Bid(amount=2))) == {"type": "bid", "amount": 2}
    assert json.loads(enc(models.RavenPass())) == {"type": "raven_pass"}
    march = models.ResolveMarch(area="winterfell", moves={"karhold": models.UnitCounts(knight=2)})
    assert json.loads(enc(march)) == {
        "type": "resolve_march",
        "area": "winterfell",
        "moves": {"karhold": {"knight": 2}},
    }
    muster_nothing = models.ResolveConsolidatePower(
        area="winterfell", muster=[]
    )  # [] musters nothing, None gains Power
    assert json.loads(enc(muster_nothing)) == {"type": "resolve_consolidate_power", "area": "winterfell", "muster": []}


# --- the card game (clients/citadel_client/cards.py) ------------------------------------------------

CARD_COMMANDS = {t.__struct_config__.tag: t.__name__ for t in get_args(GAMES["cards"].command_type)}


def test_the_client_sends_every_card_command_with_the_api_fields():
    ours = _tagged(cards.CardCommand)
    assert set(ours) == set(CARD_COMMANDS)
    for tag, name in CARD_COMMANDS.items():
        schema = SCHEMAS[name]
        fields = _fields(ours[tag])
        assert set(fields) == set(schema.get("properties", {})) - {"type"}, tag
        assert {n for n, f in fields.items() if f.required} == set(schema.get("required", [])) - {"type"}, tag
        assert issubclass(ours[tag], models.CommandBody)  # the clients' ``command`` sends it


def test_every_card_decision_kind_names_its_commands():
    from domain.cards.decisions import COMMANDS as SERVER_COMMANDS

    assert {k: list(v) for k, v in cards.COMMANDS.items()} == SERVER_COMMANDS
    assert {c for v in cards.COMMANDS.values() for c in v} <= set(CARD_COMMANDS)


@pytest.mark.parametrize(
    "model, schema",
    [
        (cards.CardDecisionsOut, "CardDecisionsOut"),
        (cards.CreateCardGameBody, "CardsCreateBody"),
        (cards.DeckChoice, "DeckChoice"),
        (cards.DeckList, "DeckList"),
        (cards.DeckEntry, "DeckEntry"),
        (cards.SetupPick, "SetupPick"),
        (cards.CardChallenge, "CardChallengeView"),
        (cards.CardInPlay, "CardInPlayView"),
        (cards.CardSeat, "CardSeatView"),
    ],
)
def test_the_card_models_have_the_api_fields(model, schema):
    assert set(_fields(model)) == set(SCHEMAS[schema]["properties"])


def test_the_card_decision_reads_every_option_the_api_sends():
    """Every field of the API's ``CardDecision`` is known to the client (a bot must not ignore an
    option); a field the client knows ahead of the server's document is optional."""
    ours = _fields(cards.CardDecision)
    assert set(SCHEMAS["CardDecision"]["properties"]) <= set(ours)
    assert all(not ours[f].required for f in set(ours) - set(SCHEMAS["CardDecision"]["properties"]))


def test_the_card_view_names_only_fields_of_the_api():
    assert set(_fields(cards.CardGameView)) <= set(SCHEMAS["CardGameView"]["properties"])


def test_card_bodies_encode_as_the_api_documents():
    enc = msgspec.json.encode
    body = cards.CreateCardGameBody.of(["stark_kraken", cards.DeckList(faction="stark", plots=[], draw=[])])
    assert json.loads(enc(body)) == {
        "decks": [{"name": "stark_kraken"}, {"deck": {"faction": "stark", "plots": [], "draw": []}}],
        "kind": "cards",
        "player_count": 2,
        "settings": {},
    }
    pick = cards.ChooseSetup(cards=[cards.SetupPick(card="s1-01"), cards.SetupPick(card="s1-02", attach_to="s1-01")])
    assert json.loads(enc(pick)) == {
        "type": "choose_setup",
        "cards": [{"card": "s1-01"}, {"card": "s1-02", "attach_to": "s1-01"}],
    }
    assert json.loads(enc(cards.ChooseIntimidate())) == {"type": "choose_intimidate"}
    assert json.loads(enc(cards.DeclareDefenders(defenders=[]))) == {"type": "declare_defenders", "defenders": []}
