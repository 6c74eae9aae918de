"""Offline audit of a card game's replay export: chain, seed, shuffles, every event re-derived.

1. every event links to the one before it (:func:`~domain.core.envelope.verify_chain`);
2. the revealed seed matches the commitment of ``cards_game_created``;
3. the creation is re-derived from its decks (every deck rule checked again, the card ids dealt
   the same way), then batch by batch every event is re-derived from the command behind it
   (:func:`domain.core.rederive.rederive`): a player's, read back from the event that opens its
   batch (:func:`candidates`), or the system's reveal or timeout. With the seed, every shuffle, the
   random first player, initiative draws and intrigue discards are re-drawn; without it (before the
   end) the shuffles recorded are taken if they are permutations of what was shuffled, and the
   report says what could not be checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.commands import Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from ..core.commitment import salt_purpose
from ..core.context import parse_rfc3339
from ..core.envelope import Envelope, verify_chain
from ..core.game import AuditReport
from ..core.rederive import Candidate, Recorded, rederive, replay_context
from ..core.rng import commit_seed
from ..core.upcast import EventCodec
from . import commands as cmd
from . import events as ev
from .decks import check
from .evolve import fold
from .phases.draw import shuffle_purpose
from .rules import created, decide, pending_system_work
from .sealed import check_reveals
from .setup import FIRST_PLAYER_PURPOSE
from .state import CardState

_codec = EventCodec(ev.CardEvent, ev.SCHEMA_VERSION, {})
SYSTEM = Actor(kind="system")
ORGANIZER = Actor(kind="organizer")


def player_command(e: Any) -> object | None:
    """The command a player's event opens its batch with (None: not a player's batch head)."""
    if getattr(e, "by_default", False):
        return None
    match e:
        case ev.CardsMulliganChosen():
            return cmd.ChooseMulligan(mulligan=e.mulligan)
        case ev.CardsSetupChosen(cards=list() as cards):
            return cmd.ChooseSetup(cards=cards)
        case ev.CardsPlotChosen(plot=str() as plot):
            return cmd.ChoosePlot(plot=plot)
        case ev.CardsFirstPlayerChosen():
            return cmd.ChooseFirstPlayer(seat_id=e.first_player)
        case ev.CardsMarshaled():
            on = e.placed.on if e.placed.as_ == "attachment" else None
            return cmd.MarshalCard(card=e.card, attach_to=on)
        case ev.CardsMarshalingEnded():
            return cmd.EndMarshaling()
        case ev.CardsChallengeDeclared():
            return cmd.DeclareChallenge(
                challenge_type=e.challenge_type,  # type: ignore[arg-type]  # decide refuses a forged type
                attackers=e.attackers,
                stealth=e.stealth,
                defender=e.defender,
            )
        case ev.CardsChallengesEnded():
            return cmd.EndChallenges()
        case ev.CardsDefendersDeclared():
            return cmd.DeclareDefenders(defenders=e.defenders)
        case ev.CardsClaimVictimsChosen():
            return cmd.ChooseClaimVictims(characters=e.characters)
        case ev.CardsReserveDiscarded():
            return cmd.DiscardToReserve(cards=e.cards)
        case ev.CardsAmbushed():
            return cmd.AmbushCard(
                card=e.card, attach_to=e.placed.on if e.placed.as_ == "attachment" else None, x=e.cost
            )
        case ev.CardsActionUsed():
            return cmd.UseAction(card=e.card, target=e.target)
        case ev.CardsEventPlayed():
            return cmd.PlayEvent(card=e.card, target=e.target)
        case ev.CardsEventCancelled():
            return cmd.UseInterrupt(card=e.card, target=e.cancelled)
        case ev.CardsReactionDeclined() | ev.CardsSaveDeclined() | ev.CardsCancelDeclined():
            return cmd.Decline()
        case ev.CardsSaved():
            return cmd.UseInterrupt(card=e.card, target=e.saved)
        case ev.CardsActionPassed():
            return cmd.PassAction()
        case ev.CardsPlayerEliminated(reason="conceded"):
            return cmd.Concede()
        case ev.CardsIntimidated():
            return cmd.ChooseIntimidate(target=e.target)
        case ev.CardsRedirectChosen():
            return cmd.ChooseRedirect(redirect=e.redirect)
        case ev.CardsChallengeRedirected():
            return cmd.ChooseDefender(seat_id=e.defender)
        case ev.CardsTitleChosen(title=str() as title):
            return cmd.ChooseTitle(title=title)
        case ev.CardsChoiceMade():
            return cmd.ChooseTargets(cards=e.chosen)
    return None


def candidates(state: CardState, recorded: Sequence[Recorded], i: int) -> list[Candidate]:
    """The commands that may have produced the batch opening at ``recorded[i]``."""
    head = recorded[i].event
    out: list[Candidate] = []
    if isinstance(head, ev.CardsSeatJoined):
        out.append((Actor(kind="seat"), JoinGame(name=head.name)))
    elif isinstance(head, ev.CardsGameStarted):
        out.append((ORGANIZER, StartGame()))
    else:
        command = player_command(head)
        seat = getattr(head, "seat_id", None)
        if command is not None and isinstance(seat, str):
            out.append((Actor(kind="seat", seat_id=seat), command))
    if pending_system_work(state):
        out.append((SYSTEM, ResolvePending()))
    if state.deadline is not None:
        out.append((SYSTEM, ApplyTimeout(step_version=state.step_version)))
    return out


def recorded_draws(recorded: list[Recorded]) -> dict[str, list[Any]]:
    """Every shuffle the export records, by the purpose of its random stream (used without the seed)."""
    out: dict[str, list[Any]] = {}
    for r in recorded:
        match r.event:
            case ev.CardsGameStarted(order=order):
                out[FIRST_PLAYER_PURPOSE] = list(order)
            case ev.CardsDeckShuffled(order=list() as order):
                out[shuffle_purpose(r.event.seat_id, r.event.number)] = order
            case ev.CardsSetupChosen(salt=str() as salt) | ev.CardsPlotChosen(salt=str() as salt):
                out[salt_purpose(r.seq, r.event.seat_id)] = [salt]
    return out


def audit(envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
    problems: list[str] = []
    unverified: list[str] = []
    chain_ok = True
    try:
        verify_chain(envelopes, redacted=redacted)
    except ValueError as e:
        chain_ok = False
        problems.append(str(e))
    try:
        recorded = [
            Recorded(
                seq=env.seq,
                ts=parse_rfc3339(env.ts),
                event=_codec.decode(bytes(env.event), env.schema),
                redacted=env.seq in redacted,
            )
            for env in envelopes
        ]
    except Exception as e:  # noqa: BLE001 - an unreadable event is a finding, never a traceback
        problems.append(f"an event cannot be read as a card-game event: {e}")
        return AuditReport(len(envelopes), chain_ok, None, None, False, problems)
    if not recorded or not isinstance(recorded[0].event, ev.CardsGameCreated):
        problems.append("the export does not start with cards_game_created")
        return AuditReport(len(envelopes), chain_ok, None, None, False, problems)
    first = recorded[0].event
    sealed = check_reveals(recorded)
    problems.extend(sealed.problems)
    seed_ok: bool | None = None
    if seed is not None:
        seed_ok = commit_seed(seed) == first.seed_commitment
        if not seed_ok:
            problems.append("the revealed seed does not match the commitment in cards_game_created")
    else:
        unverified.append("the seed is not revealed: shuffles are taken from the export, other draws not checked")
    divergence: str | None = None
    try:
        for d in first.decks:
            check(d.deck, d.seat_id, first.player_count > 2)
        again = created(first.game_id, first.settings, [d.deck for d in first.decks], first.seed_commitment)
        if again != first:
            divergence = "event 1: the card ids are not dealt from the decks as the rules deal them"
    except Exception as e:  # noqa: BLE001 - a refused deck is a finding
        divergence = f"event 1: {e}"
    state = fold([first])
    through, batches = 1, 1
    if divergence is None and state is not None:
        context = replay_context(seed, state.game_id, recorded_draws(recorded))

        result = rederive(
            state,
            recorded,
            1,
            decide=decide,
            fold=lambda events, s: fold(events, s),
            candidates=candidates,
            context=context,
        )
        state, through, batches = result.state, result.through, batches + result.batches
        if result.divergence is not None:
            divergence = result.divergence.message()
        elif result.stopped is not None:
            unverified.append(f"events {through + 1} to {recorded[-1].seq} not re-derived: {result.stopped}")
    if divergence is not None:
        problems.append(f"divergence at {divergence}")
    rules_ok = divergence is None and not sealed.problems
    return AuditReport(
        version=len(envelopes),
        chain_ok=chain_ok,
        seed_ok=seed_ok,
        shuffles_ok=(rules_ok and through == recorded[-1].seq) if seed is not None else None,
        rules_ok=rules_ok,
        problems=problems,
        rederived_through=through,
        batches=batches,
        divergence=divergence,
        unverified=unverified,
        seed_commitment=first.seed_commitment,
        game_over=state is not None and state.phase == "ended",
        commitments_ok=not sealed.problems if sealed.opened else None,
        commitment_problems=list(sealed.problems),
        reveals_opened=sealed.opened,
    )
