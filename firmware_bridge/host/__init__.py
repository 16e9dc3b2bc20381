"""The host's side of a clock link: serial and MQTT clocks as table devices
(:class:`clock.device.interface.ClockDevice`), and the registry that parses a
``--clock`` spec and opens its transport (:mod:`firmware_bridge.host.transports`).
Never imports the device side or the venue."""
