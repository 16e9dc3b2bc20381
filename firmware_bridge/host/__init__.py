"""The host's side of a clock link: serial and MQTT clocks as table devices
(:class:`clock.device.interface.ClockDevice`), the registry that parses a
``--clock`` spec and opens its transport (:mod:`firmware_bridge.host.transports`), and
the hexdump file a serial link writes on either side
(:mod:`firmware_bridge.host.hexdump_file`).
Never imports the device side or the venue."""
