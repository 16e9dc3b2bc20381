"""The rules of a game at a table: the variants as data, the state, the state machine and replay."""
