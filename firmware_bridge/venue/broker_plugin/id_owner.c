/* rackclock's Mosquitto plugin: a client id belongs to its login.
 *
 * A client that logs in as <login> must use a client id that begins with
 * "<login>-"; any other id is refused at CONNECT, before the broker looks for a
 * session to hand over. So no login can take another's session (a table's queued
 * presses and director commands) by connecting with its id (issue 22, part 2).
 * Everything else is deferred: the password file (or the next plugin) still
 * decides whether the password is right.
 *
 * Mosquitto 2.0 (checked in the v2.0.11 source, src/security.c and
 * security_default.c) calls the plugins' MOSQ_EVT_BASIC_AUTH callbacks in the
 * order they were registered, stops at the first that does not defer, and
 * registers its password_file check only after the plugins' init: this plugin
 * always runs first. A client without a login is deferred (the broker then lets
 * it in only with allow_anonymous true, which protects no id anyway).
 *
 * Build: cc -shared -fPIC -o id_owner.so id_owner.c (Debian: mosquitto-dev), or
 * `make setup`. Load: "plugin /path/id_owner.so" in mosquitto.conf.
 * docs/mqtt.md, "Security", says the rule and what an outside broker needs.
 */
#include <stdio.h>
#include <string.h>

#include <mosquitto.h>
#include <mosquitto_broker.h>
#include <mosquitto_plugin.h>

static mosquitto_plugin_id_t *plugin_id;

static int on_basic_auth(int event, void *event_data, void *userdata)
{
	struct mosquitto_evt_basic_auth *ed = event_data;
	const char *id = mosquitto_client_id(ed->client);
	size_t n;

	(void)event;
	(void)userdata;
	if(ed->username == NULL){
		return MOSQ_ERR_PLUGIN_DEFER;
	}
	n = strlen(ed->username);
	if(id != NULL && strncmp(id, ed->username, n) == 0 && id[n] == '-'){
		return MOSQ_ERR_PLUGIN_DEFER;
	}
	mosquitto_log_printf(MOSQ_LOG_NOTICE,
			"rackclock: refused client id '%s' for login '%s': an id must begin with '%s-'",
			id ? id : "", ed->username, ed->username);
	return MOSQ_ERR_AUTH;
}

/* Version 5 (MOSQ_EVT_BASIC_AUTH callbacks) only: a broker that does not offer it
 * gets -1 and refuses to load the plugin, rather than loading it as an older
 * interface it does not implement. */
int mosquitto_plugin_version(int supported_version_count, const int *supported_versions)
{
	int i;

	for(i = 0; i < supported_version_count; i++){
		if(supported_versions[i] == 5){
			return 5;
		}
	}
	return -1;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *identifier, void **userdata,
		struct mosquitto_opt *options, int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	plugin_id = identifier;
	return mosquitto_callback_register(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL, NULL);
}

int mosquitto_plugin_cleanup(void *userdata, struct mosquitto_opt *options, int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	return mosquitto_callback_unregister(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL);
}
