"""Read models built from the event streams: per-seat views, the public view and the game log.

``projections.projector`` keeps them up to date from the partition feeds (a Redis consumer group);
``projections.rebuild`` rebuilds every read model from the game streams alone.
"""
