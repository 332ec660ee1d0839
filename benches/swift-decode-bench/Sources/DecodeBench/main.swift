// Decodes each corpus (one message per line, all of one root type) with Foundation's
// `JSONDecoder` and with the runtime's `WireDecoder`, in interleaved rounds, and prints
// the median time per message of each and their ratio.
//
// Usage: DecodeBench ROUNDS ROOT=FILE...   (ROOT: IpcMessage, JsonRpcResponse,
// JsonRpcRequest, WorkerToServer)

import Foundation
import SymgenCk3lens
import SymgenRuntime
import SymgenSymposium
import SymgenWorkerSideband

/// Decodes every line with `decoder` as `type`; the number of lines decoded.
func decodeAll<T: Decodable>(_ type: T.Type, _ lines: [Data], _ decoder: JSONDecoder) -> Int {
  var decoded = 0
  for line in lines where (try? decoder.decode(type, from: line)) != nil {
    decoded += 1
  }
  return decoded
}

/// Nanoseconds per message of one pass, and how many decoded.
func timed(_ lines: [Data], _ pass: ([Data]) -> Int) -> (Double, Int) {
  let start = DispatchTime.now().uptimeNanoseconds
  let decoded = pass(lines)
  let elapsed = DispatchTime.now().uptimeNanoseconds - start
  return (Double(elapsed) / Double(lines.count), decoded)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

func passes(_ root: String) -> (plain: ([Data]) -> Int, wire: ([Data]) -> Int)? {
  func of<T: Decodable>(_ type: T.Type) -> (([Data]) -> Int, ([Data]) -> Int) {
    ({ decodeAll(type, $0, JSONDecoder()) }, { decodeAll(type, $0, WireDecoder()) })
  }
  switch root {
  case "IpcMessage": return of(IpcMessage.self)
  case "JsonRpcResponse": return of(JsonRpcResponse.self)
  case "JsonRpcRequest": return of(JsonRpcRequest.self)
  case "WorkerToServer": return of(WorkerToServer.self)
  default: return nil
  }
}

let arguments = CommandLine.arguments.dropFirst()
guard let rounds = arguments.first.flatMap(Int.init), rounds > 0 else {
  print("usage: DecodeBench ROUNDS ROOT=FILE...")
  exit(2)
}
print("corpus | messages | JSONDecoder ns/msg | WireDecoder ns/msg | WireDecoder / JSONDecoder")
for argument in arguments.dropFirst() {
  let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
  guard parts.count == 2, let pass = passes(parts[0]),
    let text = try? String(contentsOfFile: parts[1], encoding: .utf8)
  else {
    print("DecodeBench: cannot bench \(argument)")
    exit(2)
  }
  let lines = text.split(separator: "\n").map { Data($0.utf8) }
  var plain: [Double] = []
  var wire: [Double] = []
  var counts: Set<Int> = []
  for _ in 0..<rounds {
    let (p, plainDecoded) = timed(lines, pass.plain)
    let (w, wireDecoded) = timed(lines, pass.wire)
    plain.append(p)
    wire.append(w)
    counts.formUnion([plainDecoded, wireDecoded])
  }
  // Both decode every message of a corpus of valid messages: a decoder that refused
  // some would be timed on less work.
  guard counts == [lines.count] else {
    print("DecodeBench: \(parts[0]) decoded \(counts.sorted()) of \(lines.count) messages")
    exit(1)
  }
  let (p, w) = (median(plain), median(wire))
  print(
    "\(parts[0]) | \(lines.count) | \(Int(p)) | \(Int(w)) | \(String(format: "%.2f", w / p))")
}
