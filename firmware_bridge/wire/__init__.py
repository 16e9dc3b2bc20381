"""The clock wire protocol without I/O: messages, serial framing, the link layer, the
hexdump format (its file is written by :mod:`firmware_bridge.host.hexdump_file`)."""
