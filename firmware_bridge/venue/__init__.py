"""The venue, above the MQTT plumbing (:mod:`firmware_bridge.mqtt`) and never on a clock
transport: the table's state publisher, the director's link, the hub and its archive,
the managed mosquitto, the round's assignments and the venue page."""
