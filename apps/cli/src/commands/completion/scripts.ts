/** What `oam __complete` prints when the word being typed is a path: the shell completes files. */
export const FILES_DIRECTIVE = '__files__';

/** Each script asks `oam __complete -- <words after oam, the current one last>` and offers what it prints. */
export function completionScript(shell: 'bash' | 'zsh' | 'fish'): string {
  switch (shell) {
    case 'bash':
      return `# oam completion for bash: source <(oam completion bash)
_oam_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" out
  out=$(oam __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  if [[ "$out" == "${FILES_DIRECTIVE}" ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  local IFS=$'\\n'
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
}
complete -F _oam_complete oam
`;
    case 'zsh':
      return `#compdef oam
# oam completion for zsh: source <(oam completion zsh)
_oam_complete() {
  local -a candidates
  candidates=("\${(@f)$(oam __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ "\${candidates[1]}" == "${FILES_DIRECTIVE}" ]]; then
    _files
    return
  fi
  compadd -- "\${candidates[@]}"
}
if (( $+functions[compdef] )); then
  compdef _oam_complete oam
else
  autoload -U compinit && compinit && compdef _oam_complete oam
fi
`;
    case 'fish':
      return `# oam completion for fish: oam completion fish | source
function __oam_complete
  set -l words (commandline -opc) (commandline -ct)
  set -l out (oam __complete -- $words[2..-1] 2>/dev/null)
  if test "$out" = "${FILES_DIRECTIVE}"
    __fish_complete_path (commandline -ct)
    return
  end
  printf '%s\\n' $out
end
complete -c oam -f -a '(__oam_complete)'
`;
  }
}
