/// The program's exit statuses, the convention of grep and ripgrep: documented in every `--help`.
enum ExitStatus: Int32, CaseIterable, Sendable {
  /// The command did what was asked.
  case success = 0
  /// Something failed (a message on standard error says why), or a search found nothing.
  case failure = 1
  /// The command line was wrong: an unknown option, a missing argument, a bad value.
  case usage = 2

  /// What the status means, for help.
  var meaning: String {
    switch self {
    case .success: "Success."
    case .failure: "Failure (one line on standard error says why), or nothing matched (search)."
    case .usage: "Usage error: an unknown option, a missing argument or a bad value."
    }
  }
}
