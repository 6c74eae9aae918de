"""Redis: the event store script, key names, connections, configuration, the embedded Redis, read-model storage."""
