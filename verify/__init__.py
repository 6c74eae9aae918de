"""``citadel-verify``: the offline verifier of replay files (format ``citadel-replay/1``).

It needs no server: it imports the games' rules (``domain/``) and nothing of the service, so an
organizer installs the package and checks an export on any machine with the public key it fetched
once from ``GET /v1/signing-key``. See docs/replay-format.md for the format and the checks.

* :mod:`.replay_file` -- the file format (msgspec types, the JSON Schema, reading with clear errors);
* :mod:`.signature` -- public keys and the Ed25519 check of the signed chain head;
* :mod:`.cli` -- the command: every check, one report, an exit status.
"""
