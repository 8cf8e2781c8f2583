#!/bin/sh
# Scheduled PostgreSQL backups: pg_dump in custom format (-Fc, what `pg_restore` and the app's
# `restore` command read) into BACKUP_DIR, keeping the newest BACKUP_KEEP scheduled dumps.
#
#   backup.sh          run one backup now, then one every BACKUP_INTERVAL_SECONDS (the sidecar)
#   backup.sh once     run one backup and exit (non-zero when it failed)
#   backup.sh health   exit 0 when the newest scheduled dump is recent enough (container healthcheck)
#
# Connection: the standard libpq variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE — what the
# compose file sets, so no password is on a command line), or DATABASE_URL (postgres://…).
# POSIX sh: runs in the postgres:15-alpine sidecar and, unchanged, on the CI machine.
set -eu

BACKUP_DIR=${BACKUP_DIR:-/backups}
BACKUP_INTERVAL_SECONDS=${BACKUP_INTERVAL_SECONDS:-86400}
BACKUP_KEEP=${BACKUP_KEEP:-14}
# Only files with this prefix are pruned: dumps made from the admin dashboard are left alone.
PREFIX=scheduled

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) backup: $*"; }

is_positive_int() {
  case "$1" in
    '' | *[!0-9]* | 0*) return 1 ;;
    *) return 0 ;;
  esac
}

is_positive_int "$BACKUP_INTERVAL_SECONDS" || { log "BACKUP_INTERVAL_SECONDS must be a whole number of seconds > 0 (got '$BACKUP_INTERVAL_SECONDS')"; exit 2; }
is_positive_int "$BACKUP_KEEP" || { log "BACKUP_KEEP must be a whole number > 0 (got '$BACKUP_KEEP')"; exit 2; }

# pg_dump takes a connection URL in place of a database name; without one it reads PG* variables.
dump_target() {
  if [ -n "${DATABASE_URL:-}" ]; then printf '%s' "$DATABASE_URL"; else printf '%s' "${PGDATABASE:-postgres}"; fi
}

prune() {
  # Names sort in time order (UTC timestamps); everything after the newest BACKUP_KEEP goes.
  ls -1 "$BACKUP_DIR" | grep -E "^${PREFIX}-[0-9]{8}T[0-9]{6}Z\.dump\$" | sort -r | tail -n +"$((BACKUP_KEEP + 1))" |
    while read -r old; do
      rm -f "$BACKUP_DIR/$old"
      log "removed $old (keeping the newest $BACKUP_KEEP)"
    done
}

run_once() {
  mkdir -p "$BACKUP_DIR"
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  # One dump per second at most, so names never collide and always sort in time order.
  while [ -e "$BACKUP_DIR/$PREFIX-$stamp.dump" ]; do
    sleep 1
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
  done
  final="$BACKUP_DIR/$PREFIX-$stamp.dump"
  # Written under a hidden name and renamed when complete: a crash never leaves a half dump that
  # looks like a good one, and retention never counts one.
  partial="$BACKUP_DIR/.$PREFIX-$stamp.dump.partial"
  # Same flags as the app's own backups: restorable into a database owned by any role.
  if pg_dump --format=custom --no-owner --no-acl --file="$partial" "$(dump_target)"; then
    mv "$partial" "$final"
    log "wrote $final ($(wc -c <"$final" | tr -d ' ') bytes)"
    prune
    return 0
  fi
  rm -f "$partial"
  log "pg_dump failed; the previous dumps are kept"
  return 1
}

health() {
  newest=$(ls -1 "$BACKUP_DIR" 2>/dev/null | grep -E "^${PREFIX}-[0-9]{8}T[0-9]{6}Z\.dump\$" | sort -r | head -n 1)
  if [ -z "$newest" ]; then
    echo "no scheduled dump yet in $BACKUP_DIR"
    return 1
  fi
  age=$(($(date +%s) - $(date -r "$BACKUP_DIR/$newest" +%s)))
  # Two intervals plus ten minutes: one missed run is tolerated, two are not.
  limit=$((2 * BACKUP_INTERVAL_SECONDS + 600))
  if [ "$age" -gt "$limit" ]; then
    echo "newest dump $newest is ${age}s old (limit ${limit}s)"
    return 1
  fi
  echo "newest dump $newest is ${age}s old"
}

case "${1:-schedule}" in
  once) run_once ;;
  health) health ;;
  schedule)
    # The shell is PID 1 in the sidecar: without a trap it would ignore SIGTERM until killed.
    sleeper=
    trap 'log "stopping"; [ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; exit 0' TERM INT
    log "every ${BACKUP_INTERVAL_SECONDS}s into $BACKUP_DIR, keeping the newest $BACKUP_KEEP"
    while :; do
      run_once || true
      # Sleeping in the background lets the trap run as soon as a signal arrives.
      sleep "$BACKUP_INTERVAL_SECONDS" &
      sleeper=$!
      wait "$sleeper" || true
      sleeper=
    done
    ;;
  *)
    echo "usage: backup.sh [schedule|once|health]" >&2
    exit 2
    ;;
esac
