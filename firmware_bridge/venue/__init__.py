"""The venue broker: MQTT sessions, topics, the managed mosquitto, the table's state
publisher, the director's link and the hub's archive."""
