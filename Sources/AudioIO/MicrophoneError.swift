import Foundation

/// Why microphone capture could not start, or why it stopped early. Each message is one line that
/// names the device and says what to do.
public enum MicrophoneError: Error, LocalizedError, Equatable, Sendable {
  /// The machine has no capture device: the default input cannot be opened (ALSA's reason in
  /// `detail`).
  case noInputDevice(detail: String)
  /// No input device has this name.
  case deviceNotFound(device: String)
  /// Another program holds the device open (EBUSY).
  case deviceBusy(device: String)
  /// The device offers no sample format, rate or channel count that capture can convert; `detail`
  /// says what it offers.
  case unsupportedFormat(device: String, detail: String)
  /// The device exists but could not be opened for another reason (permissions, driver); `code` is
  /// ALSA's negative error number.
  case openFailed(device: String, code: Int32, detail: String)
  /// Reading failed in a way that could not be recovered (the device was unplugged, the driver
  /// failed); overruns are recovered without an error.
  case readFailed(device: String, code: Int32, detail: String)
  /// `start` was called while this capture is already running.
  case alreadyCapturing(device: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .noInputDevice(let detail):
      "no microphone found (\(detail)); connect one and check that `arecord -l` lists a capture device"
    case .deviceNotFound(let device):
      "no input device named '\(device)'; `arecord -L` or MicrophoneCapture.inputDevices() lists the names"
    case .deviceBusy(let device):
      "input device '\(device)' is busy: another program is using it; close that program or pick another device"
    case .unsupportedFormat(let device, let detail):
      "input device '\(device)' has no format that can be recorded (\(detail)); pick another device or try "
        + "'plug:\(device)'"
    case .openFailed(let device, let code, let detail):
      "cannot open input device '\(device)': \(detail) (ALSA error \(code)); check that you may use audio "
        + "devices (the audio group)"
    case .readFailed(let device, let code, let detail):
      "recording from '\(device)' failed: \(detail) (ALSA error \(code)); check the device is still connected "
        + "and start again"
    case .alreadyCapturing(let device):
      "input device '\(device)' is already recording; call stop() before starting again"
    }
  }

  /// The error for a failed open of `device`, from ALSA's negative error number `code`.
  ///
  /// A missing `default` device means the machine has no input at all; any other missing name is
  /// a name nobody defined. EBUSY (and EAGAIN, which a non-blocking open of a held device may
  /// return) means another program has the device.
  static func opening(_ device: String, code: Int32, detail: String) -> MicrophoneError {
    switch -code {
    case EBUSY, EAGAIN:
      .deviceBusy(device: device)
    case ENOENT, ENODEV, ENXIO:
      device == AudioInputDevice.default.name ? .noInputDevice(detail: detail) : .deviceNotFound(device: device)
    default:
      .openFailed(device: device, code: code, detail: detail)
    }
  }
}
