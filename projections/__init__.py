"""Read models: the projector (a consumer group over the partition feeds), the views and log it writes, and rebuild."""
