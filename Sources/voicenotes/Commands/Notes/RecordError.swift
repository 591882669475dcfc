import AudioIO
import Foundation

/// Why `voicenotes record` could not record. Each message is one line that says what to do,
/// pointing at `--list-devices` and `--input FILE` where they help.
enum RecordError: Error, LocalizedError {
  /// The microphone could not be opened or stopped delivering audio.
  case microphone(MicrophoneError)
  /// Nothing was recorded (stopped before the first buffer arrived); no note was kept.
  case nothingRecorded

  /// A one-line message that says what went wrong and what to do.
  var errorDescription: String? {
    switch self {
    case .microphone(.noInputDevice(let detail)):
      "no microphone found (\(detail)); connect one, or pick an input with --device NAME (see "
        + "`voicenotes record --list-devices`), or record a file in real time with --input FILE"
    case .microphone(.deviceNotFound(let device)):
      "no input device named '\(device)'; `voicenotes record --list-devices` lists them (or use --input FILE)"
    case .microphone(.deviceBusy(let device)):
      "input device '\(device)' is busy: another program is using it; close that program or pick another "
        + "input with --device NAME (see `voicenotes record --list-devices`)"
    case .microphone(let error):
      error.errorDescription
    case .nothingRecorded:
      "nothing was recorded, so no note was saved; record for longer before stopping"
    }
  }
}
