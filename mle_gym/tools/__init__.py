"""Tools: schemas (one source), action parsing, host-side file access, implementations."""
