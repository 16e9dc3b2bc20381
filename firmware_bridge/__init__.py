"""Clock devices over serial and MQTT (not built yet; see docs/architecture.md)."""
