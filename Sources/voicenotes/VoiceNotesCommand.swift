import CommandLineParsing
import Foundation

/// The `voicenotes` program: private, on-device voice notes.
struct VoiceNotesCommand: ParsableCommand {
  static let versionFlag = Flag("version", help: "Show the version.")

  static let configuration = CommandConfiguration(
    name: "voicenotes",
    abstract: "Private voice notes: transcribed and analysed on this machine, or on servers you name, nowhere else.",
    options: [versionFlag],
    subcommands: [
      ServeCommand.self, ImportCommand.self, RecordCommand.self, ListCommand.self, ShowCommand.self, SearchCommand.self,
      AskCommand.self,
      TasksCommand.self, DoneCommand.self, UndoneCommand.self, RetryCommand.self, ResumeCommand.self,
      AnalyzeCommand.self, RenameCommand.self, DeleteCommand.self, ExportCommand.self, SamplesCommand.self,
      VocabularyCommand.self, SpeakersCommand.self, TranscribeCommand.self, ModelsCommand.self, ConfigCommand.self,
      DoctorCommand.self,
      CompletionCommand.self,
    ],
    examples: [
      Example("voicenotes samples restore && voicenotes serve --open", "Try it: sample notes in the browser app."),
      Example("voicenotes import memo.m4a", "Add a recording: transcribed, titled, summarised, tasks found."),
      Example("voicenotes search budget", "Find notes by any word in them."),
      Example("voicenotes tasks --person priya", "Action items that involve Priya."),
    ])

  static let version = "0.1.0"

  let showVersion: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    showVersion = input.isSet(Self.versionFlag)
  }

  func run() async throws {
    if showVersion {
      print("voicenotes \(Self.version)")
    } else {
      print(HelpFormatter.help(for: Self.configuration, commandPath: "voicenotes"), terminator: "")
    }
  }
}
