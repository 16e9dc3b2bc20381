"""One table's live service: the service itself, bringing a table up (the session), and
the headless runner behind ``rackclock serve``."""
