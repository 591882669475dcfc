/// A device audio can be recorded from: an ALSA capture PCM and a description for people.
///
/// ``MicrophoneCapture/inputDevices()`` lists the ones this machine has; ``default`` is the system's
/// default input, which is what most people want.
public struct AudioInputDevice: Hashable, Sendable {
  /// The ALSA PCM name to open, for example `default`, `plughw:CARD=PCH,DEV=0` or `pulse`.
  public var name: String
  /// What the device is, in one line, as ALSA describes it (for example "HDA Intel PCH, ALC892
  /// Analog"); empty when ALSA has no description.
  public var description: String

  /// Names a device; `description` is only for display.
  public init(name: String, description: String = "") {
    self.name = name
    self.description = description
  }

  /// The system's default input (ALSA's `default` PCM).
  public static let `default` = AudioInputDevice(name: "default", description: "Default input")

  /// Whether this is the system's default input.
  public var isDefault: Bool { name == Self.default.name }
}
