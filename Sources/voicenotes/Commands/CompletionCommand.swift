import CommandLineParsing

/// `voicenotes completion`: the shell completion script for bash, zsh or fish.
struct CompletionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "completion", abstract: "Print the shell completion script for bash, zsh or fish.",
    discussion: "Completes commands, options, option values (formats, scopes, models) and file names.",
    arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.")],
    examples: [
      Example("source <(voicenotes completion bash)", "Completion in this bash session (add it to ~/.bashrc)."),
      Example("voicenotes completion zsh > ~/.zfunc/_voicenotes", "zsh, with ~/.zfunc on $fpath."),
      Example("voicenotes completion fish > ~/.config/fish/completions/voicenotes.fish", "fish, for good."),
    ])

  let shell: CompletionScript.Shell

  init(_ input: ParsedInput) throws(UsageError) {
    guard let shell = CompletionScript.Shell(rawValue: input.positionals[0]) else {
      throw input.error(
        "no completion for '\(input.positionals[0])'; choose one of: "
          + CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", "))
    }
    self.shell = shell
  }

  func run() async throws {
    print(CompletionScript(root: VoiceNotesCommand.self).script(for: shell), terminator: "")
  }
}
