"""The broker connection every MQTT transport shares: sessions and topic names."""
