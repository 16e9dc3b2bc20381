"""Clock devices over serial and MQTT: the wire protocol without I/O (:mod:`firmware_bridge.wire`),
the host's side of a clock link (:mod:`firmware_bridge.host`), the device's side: the emulated
firmware and the gateway (:mod:`firmware_bridge.device`), and the venue broker
(:mod:`firmware_bridge.venue`). The host side never imports the device side."""
