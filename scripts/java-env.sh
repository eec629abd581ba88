# Sourced by project scripts: Java 25 (Temurin) for Maven and for running kovn.
if [[ -z ${KOVN_JAVA_HOME:-} ]]; then
  for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25*; do
    [[ -x $j/bin/java ]] && { KOVN_JAVA_HOME=$j; break; }
  done
fi
[[ -n ${KOVN_JAVA_HOME:-} ]] || { echo "kovn: Java 25 (Temurin) not found under /usr/lib/jvm" >&2; exit 1; }
export JAVA_HOME=$KOVN_JAVA_HOME
export PATH=$JAVA_HOME/bin:$PATH
