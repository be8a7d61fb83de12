// Boards on many machines (#22): stations and a hub over MQTT, never a
// home-made network layer. A station is today's one-board service (its room,
// page and journal: the source of truth) plus a publisher (station.ts); the
// hub is club mode whose rooms are mirrors of the stations' games (hub.ts,
// mirror.ts, remote.ts). The design, in short:
//
// - Topics under crownhead/v1/boards/ID/ (topics.ts), payloads in
//   src/protocol/stations-v1.ts: status (retained; the will says offline),
//   game (retained: the current game and its record count), entries (every
//   journal record with gameId + seq, QoS 1; a new game's record 0 names the
//   game before it and its final count), alerts, clock, answer; from the hub:
//   ack (retained: records applied) and cmd (signed, signing.ts).
// - A station publishes a record only once its store has it on disk, and after
//   every (re)connect republishes from the hub's last ack; it answers resend
//   requests from the records it keeps (the current game and the one before).
// - The hub applies each (board, game, seq) exactly once and in order
//   (sequencer.ts, pure: duplicates dropped, early records held, a gap asked
//   for and asked again after retryMs, a new game started only when the one
//   before is complete), journals what it applies in the board's own folder and
//   follows it with a MirrorSession (src/game/mirror.ts), so feed, summary,
//   /watch, /arbiter, /broadcast.pdn work unchanged. A hub restart rebuilds
//   from its files; the retained game message and the stations' republishing
//   fill in the rest.
// - Consecutive tags records are one (canonical(): the journal's writer merges
//   a burst of them), so a station's numbering and the hub's agree after
//   either restarts.
// - Commands from the hub (a board's page on the hub, the arbiter) go to the
//   station as signed cmd messages (HMAC-SHA256 over nonce.time.body with the
//   pairing secret; a window and seen nonces against replay); the station runs
//   them as its own page's and answers.
// - A game between two boards (opponent.ts): a station follows the other
//   station's entries and hands each of the far player's moves to its session
//   as the move of its player at another board (src/game/remote.ts).
// - MQTT 3.1.1 by default (aedes speaks nothing newer), clean start off; with
//   MQTT 5 (Mosquitto) a session expiry.

export { StationPublisher, startStation, type StationOptions, type StationStart } from './station.ts';
export { Hub, type HubOptions } from './hub.ts';
export { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
export { Sequencer, canonical, type Arrival, type SequencerAction } from './sequencer.ts';
export { CommandGuard, signCommand } from './signing.ts';
export { boardTopic, parseTopic, TOPIC_ROOT, type StationTopic } from './topics.ts';
