/// The part of AVFoundation's capture device that audio apps use: asking for permission to record,
/// and the default microphone.
///
/// Linux has no per-app permission to record (access to capture devices is the user's group
/// membership), so the status is `.authorized` and requests are granted. Which device records is
/// ``AVAudioEngine/inputDevice``; ``MicrophoneCapture/inputDevices()`` lists them.
public final class AVCaptureDevice: Sendable {
  /// Whether the app may capture a kind of media.
  public enum AuthorizationStatus: Int, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Not allowed by policy.
    case restricted = 1
    /// Refused.
    case denied = 2
    /// Allowed.
    case authorized = 3
  }

  /// The device's ALSA name.
  public let uniqueID: String
  /// What the device is called, as ALSA describes it.
  public let localizedName: String

  private init(_ device: AudioInputDevice) {
    uniqueID = device.name
    localizedName = device.description.isEmpty ? device.name : device.description
  }

  /// The device ``AVAudioEngine`` records from, for audio: ``AVAudioEngine/inputDevice`` when it is
  /// among the machine's inputs, else the first input; nil when there is none, and for video.
  public static func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
    guard mediaType == .audio else { return nil }
    let inputs = MicrophoneCapture.inputDevices()
    let chosen = inputs.first { $0.name == AVAudioEngine.inputDevice.name } ?? inputs.first
    return chosen.map(AVCaptureDevice.init)
  }

  /// Always `.authorized` on Linux (see the type's notes).
  public static func authorizationStatus(for mediaType: AVMediaType) -> AuthorizationStatus { .authorized }

  /// Grants at once: `true` for audio (see the type's notes), `false` for video, which this package
  /// does not capture.
  public static func requestAccess(for mediaType: AVMediaType) async -> Bool { mediaType == .audio }

  /// Calls `handler` at once with what ``requestAccess(for:)`` returns.
  public static func requestAccess(
    for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void
  ) {
    handler(mediaType == .audio)
  }
}

/// A kind of media, as AVFoundation names them.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
  /// The media type's identifier.
  public let rawValue: String
  /// A media type with identifier `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Sound.
  public static let audio = AVMediaType(rawValue: "soun")
  /// Pictures.
  public static let video = AVMediaType(rawValue: "vide")
}
