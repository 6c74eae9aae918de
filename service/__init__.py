"""The HTTP service and the application layer shared with workers and projectors."""
