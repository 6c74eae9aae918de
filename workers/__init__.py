"""RQ jobs (resolve a step, fire a timeout), the worker class and its periodic sweep."""
