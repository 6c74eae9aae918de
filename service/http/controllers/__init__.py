"""One controller per resource: games (create, join, start), commands, views, events, ops."""
