// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seed 003: the view's logic, as the post writes it: its state, requestAuthorization(),
// lmConfiguration, setUpTrainingData(), setupSpeechRecognition(), initiateRecording() and
// stopRecording(). Only the imports changed (Speech -> SpeechRecognition, and AudioIO for the
// AVFoundation names); the SwiftUI body is left out, and the button's action, onAppear and
// showAlert(_:), which the post uses but does not show, are written here as the calls they make.

import Foundation
import SpeechRecognition
import AudioIO

struct ContentView {
    @State var recordButtonLabel = ""
    @State var recordButtonEnabled = false
    @State var viewModel = ContentViewModel()
    @State private var recognitionRequest: SFSpeechAudioBufferRecognitionRequest?
    @State private var recognitionTask: SFSpeechRecognitionTask?
    private let audioEngine = AVAudioEngine()

    func onAppear() {
        self.requestAuthorization()
    }

    var isRecording: Bool { audioEngine.isRunning }

    func buttonTapped() {
        audioEngine.isRunning ? stopRecording() : initiateRecording()
    }

    private func showAlert(_ text: String) {
        viewModel.alertText = text
        viewModel.alertVisible = true
    }

    private func requestAuthorization() {
        SFSpeechRecognizer.requestAuthorization { authStatus in
            OperationQueue.main.addOperation {
                switch authStatus {
                case .authorized:
                    self.setUpTrainingData()
                    
                case .denied:
                    self.recordButtonEnabled = false
                    self.recordButtonLabel = "Speech permission denied"
                    
                    
                case .restricted:
                    self.recordButtonEnabled = false
                    self.recordButtonLabel = "Speech is restricted"
                    
                    
                default:
                    self.recordButtonEnabled = false
                    self.recordButtonLabel = "Unknown authorization state"
                }
            }
        }
    }

    private var lmConfiguration: SFSpeechLanguageModel.Configuration {
            let outputDir = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first!
            let dynamicLanguageModel = outputDir.appendingPathComponent("LM")
            let dynamicVocabulary = outputDir.appendingPathComponent("Vocab")
            return SFSpeechLanguageModel.Configuration(languageModel: dynamicLanguageModel, vocabulary: dynamicVocabulary)
        }

    private func setUpTrainingData() {
        Task.detached {
            do {
                self.recordButtonLabel = "Initiating training model"
                let assetUrl = URL(fileURLWithPath: Bundle.main.path(forResource: "MLData", ofType: "bin")!)
                try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: assetUrl,
                                                                           clientIdentifier: "site.modista.speechRecognizer.SpeechRecognition",
                                                                           configuration: self.lmConfiguration)
                
                self.recordButtonEnabled = true
                self.recordButtonLabel = "Start recording"
            } catch {
                NSLog("Failed to prepare custom LM: \(error.localizedDescription)")
            }
        }
    }

    private func setupSpeechRecognition() {
        self.recognitionRequest = SFSpeechAudioBufferRecognitionRequest()
        guard let recognitionRequest = self.recognitionRequest else {
            
            return
        }
        recognitionRequest.shouldReportPartialResults = true
        recognitionRequest.requiresOnDeviceRecognition = true
        recognitionRequest.customizedLanguageModel = self.lmConfiguration
    }

    private func initiateRecording() {
        let audioSession = AVAudioSession.sharedInstance()
        
        do {
            try audioSession.setCategory(.record, mode: .measurement, options: .duckOthers)
            try audioSession.setActive(true, options: .notifyOthersOnDeactivation)
        } catch {
            self.showAlert("Microphone is not available")
            return
        }
        let inputNode = audioEngine.inputNode
        
        setupSpeechRecognition()
        
        recognitionTask = viewModel.speechRecognizer.recognitionTask(with: recognitionRequest!) { result, error in
            var isFinal = false
            
            if let result = result {
                
                
                isFinal = result.isFinal
                
                if (result.bestTranscription.segments.count == 4 && result.bestTranscription.formattedString.contains("Set background to")){
                    switch result.bestTranscription.segments.last?.substring{
                    case "green":
                        viewModel.backgroundColor = .green
                    case "blue":
                        viewModel.backgroundColor = .blue
                    case "red":
                        viewModel.backgroundColor = .red
                    default:
                        print("Color not recognized")
                    }
                }
                if (result.bestTranscription.segments.count == 3 && result.bestTranscription.formattedString.contains("I am")){
                    switch result.bestTranscription.segments.last?.substring{
                    case "sea":
                        viewModel.backgroundColor = .blue
                    case "fire":
                        viewModel.backgroundColor = .orange
                    default:
                        print("Be whoever you want to be")
                    }
                }
                viewModel.lastText = result.bestTranscription.formattedString
            }
            
            if error != nil{
            }
        }
        
        let recordingFormat = inputNode.outputFormat(forBus: 0)
        inputNode.installTap(onBus: 0, bufferSize: 1024, format: recordingFormat) { (buffer: AVAudioPCMBuffer, when: AVAudioTime) in
                self.recognitionRequest?.append(buffer)
        }


        audioEngine.prepare()
        do {
            try audioEngine.start()
            self.viewModel.recordButtonLabel = "Recording. Tap to stop"
        } catch {
            print("Something's not right")
        }
        
    }

    private func stopRecording() {
        self.audioEngine.stop()
        audioEngine.inputNode.removeTap(onBus: 0)
        
        self.recognitionRequest = nil
        self.recognitionTask = nil
        
        self.viewModel.recordButtonEnabled = true
        self.viewModel.recordButtonLabel = "Start recording"
    }
}
