"""The clock wire protocol without I/O: messages, serial framing, the link layer, hexdumps."""
