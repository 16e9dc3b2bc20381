"""The venue screen in a browser: a small ASGI app fed from the venue broker."""
