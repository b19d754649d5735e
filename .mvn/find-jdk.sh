# Sourced by ./mvnw and ./veracity: make JAVA_HOME point at a JDK >= 21.
# Keeps JAVA_HOME when it is already >= 21, else picks the newest JDK under /usr/lib/jvm
# (Temurin 25 on our machines; the default `java` there is 17 and cannot build release 21).
veracity_java_major() {
  # A JDK's `release` file names its version: reading it costs nothing, starting `java -version` ~50 ms a JDK.
  if [ -r "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1)
    [ -n "$v" ] && { echo "$v"; return; }
  fi
  "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}
veracity_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(veracity_java_major "$JAVA_HOME"); [ "${v:-0}" -ge 21 ] 2>/dev/null && return 0
  fi
  best=""; bestv=0
  for d in /usr/lib/jvm/* /opt/java/* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/*; do
    [ -x "$d/bin/javac" ] || continue
    v=$(veracity_java_major "$d"); v=${v:-0}
    if [ "$v" -ge 21 ] 2>/dev/null && [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  if [ -z "$best" ] && command -v javac >/dev/null 2>&1; then
    d=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(veracity_java_major "$d"); [ "${v:-0}" -ge 21 ] 2>/dev/null && best=$d
  fi
  if [ -z "$best" ]; then
    echo "veracity: no JDK >= 21 found (looked at JAVA_HOME and /usr/lib/jvm). Install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 25, then retry." >&2
    return 1
  fi
  export JAVA_HOME="$best"
}
veracity_find_jdk || exit 1
