import Foundation
import Synchronization

/// The app's audio session, as iOS has it: a category, a mode and options that tell the system
/// how the app uses audio.
///
/// Linux has no system-wide session to negotiate with, so each call succeeds and records what
/// was asked (``category``, ``mode``, ``categoryOptions``, ``isActive``), and nothing else
/// changes: other programs' sound is not ducked or interrupted. A missing microphone shows when
/// the engine starts, not here. ``recordPermission`` is always `.granted`: access to capture
/// devices on Linux is the user's group membership, not a per-app permission.
public final class AVAudioSession: @unchecked Sendable {
  /// What the app does with audio.
  public struct Category: RawRepresentable, Hashable, Sendable {
    /// The category's name, as iOS spells it.
    public let rawValue: String
    /// Creates a category named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Sound that mixes with others and is silenced by the ring switch.
    public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
    /// The default: sound that silences others.
    public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
    /// Playback that is central to the app.
    public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
    /// Recording only.
    public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
    /// Recording and playback together.
    public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
    /// Several inputs and outputs at once.
    public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
  }

  /// A specialisation of the category.
  public struct Mode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as iOS spells it.
    public let rawValue: String
    /// Creates a mode named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No specialisation.
    public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
    /// Minimal signal processing, for analysing the input (speech recognition).
    public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
    /// Spoken content such as podcasts.
    public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
    /// Two-way voice communication.
    public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
    /// Video recording.
    public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
  }

  /// How the app's audio mixes with others.
  public struct CategoryOptions: OptionSet, Hashable, Sendable {
    /// The options' bits, as iOS numbers them.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Mix with other apps' audio.
    public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
    /// Lower other apps' audio while this one plays or records.
    public static let duckOthers = CategoryOptions(rawValue: 0x2)
    /// Allow Bluetooth hands-free devices.
    public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
    /// Route output to the speaker rather than the receiver.
    public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    /// Interrupt other apps' spoken audio (podcasts, books) and mix with the rest.
    public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
    /// Allow Bluetooth devices that play high-quality audio (A2DP).
    public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
    /// Allow AirPlay devices.
    public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    /// Keep recording when the device's microphone is muted by hardware.
    public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    /// Allow Bluetooth hands-free devices: the 26 name of ``allowBluetooth``.
    public static let allowBluetoothHFP = allowBluetooth
  }

  /// Whether an interruption (a call, an alarm) began or ended.
  public enum InterruptionType: UInt, Sendable {
    /// The system took audio away from the app.
    case began = 1
    /// The interruption is over.
    case ended = 0
  }

  /// What an ended interruption suggests.
  public struct InterruptionOptions: OptionSet, Hashable, Sendable {
    /// The options' bits, as iOS numbers them.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The app may resume playing or recording.
    public static let shouldResume = InterruptionOptions(rawValue: 1)
  }

  /// Posted when another app or the system interrupts the session's audio. Linux has no such
  /// interruptions, so it is never posted; observers compile and wait.
  public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
  /// Posted when an input or output device comes or goes (never posted on Linux; see
  /// ``interruptionNotification``).
  public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
  /// Posted when the system's media services restart (never posted on Linux).
  public static let mediaServicesWereResetNotification = Notification.Name(
    "AVAudioSessionMediaServicesWereResetNotification")

  /// Options for activating and deactivating the session.
  public struct SetActiveOptions: OptionSet, Hashable, Sendable {
    /// The options' bits, as iOS numbers them.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Tell other apps when this one deactivates, so they can resume.
    public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
  }

  /// The kind of an input or output port.
  public struct Port: RawRepresentable, Hashable, Sendable {
    /// The kind's name, as iOS spells it.
    public let rawValue: String
    /// A port of this kind.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A built-in microphone.
    public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
    /// A headset's microphone.
    public static let headsetMic = Port(rawValue: "MicrophoneWired")
    /// A line-level input.
    public static let lineIn = Port(rawValue: "LineIn")
    /// A USB audio device.
    public static let usbAudio = Port(rawValue: "USBAudio")
    /// A Bluetooth hands-free device.
    public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
    /// A Bluetooth device playing high-quality audio.
    public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
    /// Built-in speakers.
    public static let builtInSpeaker = Port(rawValue: "Speaker")
    /// A phone's earpiece.
    public static let builtInReceiver = Port(rawValue: "Receiver")
    /// Headphones.
    public static let headphones = Port(rawValue: "Headphones")
    /// A line-level output.
    public static let lineOut = Port(rawValue: "LineOut")
  }

  /// Where output goes instead of the route's own choice.
  public enum PortOverride: UInt, Sendable {
    /// The route's own output.
    case none = 0
    /// The built-in speaker.
    case speaker = 0x7370_6B72
  }

  /// Whether the app may record.
  public enum RecordPermission: Sendable {
    /// Not asked yet.
    case undetermined
    /// Refused.
    case denied
    /// Allowed.
    case granted
  }

  /// The app's one session.
  public static func sharedInstance() -> AVAudioSession { shared }
  private static let shared = AVAudioSession()

  private struct Settings {
    var category = Category.soloAmbient
    var mode = Mode.default
    var options: CategoryOptions = []
    var active = false
    var preferredSampleRate: Double = 0
    var preferredIOBufferDuration: TimeInterval = 0
    var outputOverride = PortOverride.none
  }
  private let settings = Mutex(Settings())

  private init() {}

  /// The category last set.
  public var category: Category { settings.withLock { $0.category } }
  /// The mode last set.
  public var mode: Mode { settings.withLock { $0.mode } }
  /// The options last set.
  public var categoryOptions: CategoryOptions { settings.withLock { $0.options } }
  /// Whether the session was activated and not deactivated since.
  public var isActive: Bool { settings.withLock { $0.active } }
  /// Always `.granted` on Linux (see the type's notes).
  public var recordPermission: RecordPermission { .granted }
  /// Whether an audio input device can be opened now.
  public var isInputAvailable: Bool { (try? MicrophoneCapture(device: AVAudioEngine.inputDevice)) != nil }

  /// Records the category (see the type's notes: nothing else changes on Linux).
  public func setCategory(_ category: Category) throws {
    settings.withLock { $0.category = category }
  }

  /// Records the category, mode and options (see the type's notes: nothing else changes on Linux).
  public func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
    settings.withLock {
      $0.category = category
      $0.mode = mode
      $0.options = options
    }
  }

  /// Records the category and options (see the type's notes).
  public func setCategory(_ category: Category, options: CategoryOptions) throws {
    settings.withLock {
      $0.category = category
      $0.options = options
    }
  }

  /// Records the mode (see the type's notes).
  public func setMode(_ mode: Mode) throws {
    settings.withLock { $0.mode = mode }
  }

  /// Activates or deactivates the session; it always succeeds on Linux (see the type's notes).
  public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
    settings.withLock { $0.active = active }
  }

  /// Records the sample rate the app would like the hardware to run at (0 until set); capture
  /// here converts to the rate each tap asks for, whatever the device's own.
  public func setPreferredSampleRate(_ sampleRate: Double) throws {
    settings.withLock { $0.preferredSampleRate = sampleRate }
  }

  /// The sample rate last preferred, or 0.
  public var preferredSampleRate: Double { settings.withLock { $0.preferredSampleRate } }

  /// Records the I/O buffer duration the app would like (0 until set); taps here get the buffer
  /// size they ask for.
  public func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
    settings.withLock { $0.preferredIOBufferDuration = duration }
  }

  /// The I/O buffer duration last preferred, or 0.
  public var preferredIOBufferDuration: TimeInterval { settings.withLock { $0.preferredIOBufferDuration } }

  /// The capture devices ALSA's configuration names, the default first, each as a port (nil when
  /// there is none).
  public var availableInputs: [AVAudioSessionPortDescription]? {
    let devices = MicrophoneCapture.inputDevices()
    return devices.isEmpty ? nil : devices.map(Self.port(of:))
  }

  /// The input chosen with ``setPreferredInput(_:)``, or nil for ALSA's default.
  public var preferredInput: AVAudioSessionPortDescription? {
    let device = AVAudioEngine.inputDevice
    return device.isDefault ? nil : Self.port(of: device)
  }

  /// Records from `input` from now on (``AVAudioEngine/inputDevice``), or from ALSA's default
  /// input when nil, and posts ``routeChangeNotification``.
  public func setPreferredInput(_ input: AVAudioSessionPortDescription?) throws {
    AVAudioEngine.inputDevice =
      input.map { AudioInputDevice(name: $0.uid, description: $0.portName == $0.uid ? "" : $0.portName) } ?? .default
    NotificationCenter.default.post(name: Self.routeChangeNotification, object: self)
  }

  /// The ports audio goes through now: the engine's input and output devices.
  public var currentRoute: AVAudioSessionRouteDescription {
    let output = AVAudioEngine.outputDevice
    let type: Port = settings.withLock { $0.outputOverride } == .speaker ? .builtInSpeaker : .lineOut
    return AVAudioSessionRouteDescription(
      inputs: [Self.port(of: AVAudioEngine.inputDevice)],
      outputs: [AVAudioSessionPortDescription(deviceName: output, description: output, type: type)])
  }

  /// Records where output should go (see the type's notes): the route's outputs are then named
  /// as the built-in speaker, and the device stays ``AVAudioEngine/outputDevice``.
  public func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
    settings.withLock { $0.outputOverride = portOverride }
  }

  /// The input device's own sample rate (probed), or 0 when it cannot be opened.
  public var sampleRate: Double { inputDeviceFormat?.sampleRate ?? 0 }

  /// The input device's channel count (probed), or 0 when it cannot be opened.
  public var inputNumberOfChannels: Int { inputDeviceFormat?.channels ?? 0 }

  /// The input device's own format, from opening it; nil when it cannot be opened.
  private var inputDeviceFormat: AudioFormat? {
    (try? MicrophoneCapture(device: AVAudioEngine.inputDevice))?.deviceFormat
  }

  /// The I/O buffer duration: the one preferred, else the 20 ms capture reads here.
  public var ioBufferDuration: TimeInterval {
    let preferred = preferredIOBufferDuration
    return preferred > 0 ? preferred : 0.02
  }

  /// A port for an ALSA capture device: USB or Bluetooth when its description says so, else a
  /// built-in microphone.
  private static func port(of device: AudioInputDevice) -> AVAudioSessionPortDescription {
    let text = (device.name + " " + device.description).lowercased()
    let type: Port =
      text.contains("usb")
      ? .usbAudio : text.contains("bluez") || text.contains("bluetooth") ? .bluetoothHFP : .builtInMic
    return AVAudioSessionPortDescription(deviceName: device.name, description: device.description, type: type)
  }

  /// Calls `response` with `true` at once: Linux has no per-app record permission.
  public func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
    response(true)
  }
}
