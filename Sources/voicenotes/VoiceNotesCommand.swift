import Foundation

/// The `voicenotes` program: private, on-device voice notes.
struct VoiceNotesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "voicenotes",
    abstract: "Private, on-device voice notes: transcribed and analysed on this machine, never sent anywhere.",
    options: [.flag("version", help: "Show the version.")],
    subcommands: [
      ServeCommand.self, ImportCommand.self, RecordCommand.self, ListCommand.self, ShowCommand.self, SearchCommand.self,
      TasksCommand.self,
      DoneCommand.self,
      UndoneCommand.self, RetryCommand.self, ResumeCommand.self, AnalyzeCommand.self, RenameCommand.self,
      DeleteCommand.self,
      ExportCommand.self, SamplesCommand.self, VocabularyCommand.self, TranscribeCommand.self, ModelsCommand.self,
    ])

  static let version = "0.1.0"

  let showVersion: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    showVersion = input.flag("version")
  }

  func run() async throws {
    if showVersion {
      print("voicenotes \(Self.version)")
    } else {
      print(HelpFormatter.help(for: Self.configuration, commandPath: "voicenotes"), terminator: "")
    }
  }
}
