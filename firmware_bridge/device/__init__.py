"""The device's side of a clock link: the emulated clock firmware, its serial and MQTT
runners, and the serial-to-MQTT gateway."""
