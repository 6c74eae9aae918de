"""RQ jobs: resolve a step once all sealed inputs are in, and fire timeouts at deadlines.

Run a worker with ``rq worker --with-scheduler -u $CITADEL_QUEUE_URL citadel``
(``citadel worker`` does exactly that).
"""
