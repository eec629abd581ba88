# Sourced by project scripts: Java 25 for Maven and for running kovn. Temurin 25 under /usr/lib/jvm
# when the machine has it, else Debian's OpenJDK 25 unpacked privately by scripts/install-jdk.sh.
if [[ -z ${KOVN_JAVA_HOME:-} ]]; then
  for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25*; do
    [[ -x $j/bin/java ]] && { KOVN_JAVA_HOME=$j; break; }
  done
fi
if [[ -z ${KOVN_JAVA_HOME:-} ]]; then
  KOVN_JAVA_HOME=$("$(dirname "${BASH_SOURCE[0]}")/install-jdk.sh") \
    || { echo "kovn: no Java 25: neither Temurin 25 under /usr/lib/jvm nor Debian's openjdk-25 could be installed" >&2; exit 1; }
fi
export JAVA_HOME=$KOVN_JAVA_HOME
export PATH=$JAVA_HOME/bin:$PATH
