#!/bin/sh
# The first start of the compose file's PostgreSQL (docker-entrypoint-initdb.d): the roles and
# the database docs/postgres.md's setup makes, as the cluster's superuser.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v password="$LEDGERDESK_DB_PASSWORD" <<'SQL'
CREATE ROLE ledgerdesk_app NOLOGIN;
CREATE ROLE ledgerdesk_reader NOLOGIN;
CREATE ROLE ledgerdesk LOGIN PASSWORD :'password';
GRANT ledgerdesk_app, ledgerdesk_reader TO ledgerdesk;
CREATE DATABASE books OWNER ledgerdesk LOCALE 'C' TEMPLATE template0;
SQL
