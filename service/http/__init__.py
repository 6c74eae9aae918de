"""The REST API: the Litestar app, one controller per resource, guards, problem details, API models."""
