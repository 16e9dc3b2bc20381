"""The host's side of a clock link: serial and MQTT clocks as table devices
(:class:`clock.device.interface.ClockDevice`), and opening one from a ``--clock`` URL.
Never imports the device side."""
