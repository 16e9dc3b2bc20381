"""Clock devices over serial and MQTT, and the venue. From the bottom: the wire protocol
without I/O (:mod:`firmware_bridge.wire`) and the broker connection every MQTT user
shares (:mod:`firmware_bridge.mqtt`); the clock transports: the host's side of a clock
link and the ``--clock`` registry (:mod:`firmware_bridge.host`), the device's side:
the emulated firmware and the gateway (:mod:`firmware_bridge.device`); the venue, which
never imports a clock class (:mod:`firmware_bridge.venue`); and, on top,
:mod:`firmware_bridge.table_setup`, which brings a table up with a transport and, on a
broker, the venue's publisher. The host side never imports the device side
(tests/test_import_direction.py)."""
