/// An audio input or output of the machine, as AVAudioSession describes its ports.
///
/// On Linux a port is an ALSA device: its ``uid`` is the device's ALSA name (what
/// ``AVAudioEngine/inputDevice`` and ``AVAudioEngine/outputDevice`` take), its ``portName`` the
/// description ALSA's configuration gives it. ``channels`` and ``dataSources`` are nil: ALSA's
/// device list does not say them without opening each device.
public final class AVAudioSessionPortDescription: Sendable, Equatable {
  /// What kind of port it is: a USB device named as one, Bluetooth, or otherwise built in.
  public let portType: AVAudioSession.Port
  /// The name people know the device by.
  public let portName: String
  /// The device's ALSA name, which identifies it.
  public let uid: String

  /// A port for the ALSA device `name` described as `description`.
  init(deviceName name: String, description: String, type: AVAudioSession.Port) {
    portType = type
    portName = description.isEmpty ? name : description
    uid = name
  }

  /// Not known here (see the type's notes).
  public var channels: [AVAudioSessionChannelDescription]? { nil }
  /// Not known here (see the type's notes).
  public var dataSources: [AVAudioSessionDataSourceDescription]? { nil }
  /// Not known here (see the type's notes).
  public var selectedDataSource: AVAudioSessionDataSourceDescription? { nil }

  /// Ports are the same when they name the same device.
  public static func == (lhs: AVAudioSessionPortDescription, rhs: AVAudioSessionPortDescription) -> Bool {
    lhs.uid == rhs.uid && lhs.portType == rhs.portType
  }
}

/// One channel of a port, as AVAudioSession describes it.
public struct AVAudioSessionChannelDescription: Sendable, Equatable {
  /// The channel's name.
  public let channelName: String
  /// The channel's number on its port, from 1.
  public let channelNumber: Int
  /// The ``AVAudioSessionPortDescription/uid`` of the port it belongs to.
  public let owningPortUID: String
}

/// A data source of a port (a microphone of several on one device), as AVAudioSession describes it.
public struct AVAudioSessionDataSourceDescription: Sendable, Equatable {
  /// The source's identifier.
  public let dataSourceID: Int
  /// The source's name.
  public let dataSourceName: String
}

/// The inputs and outputs audio goes through now.
public struct AVAudioSessionRouteDescription: Sendable {
  /// The input ports: the engine's input device.
  public let inputs: [AVAudioSessionPortDescription]
  /// The output ports: the engine's output device.
  public let outputs: [AVAudioSessionPortDescription]
}
