// swift-tools-version: 6.0
// The Swift decode benchmark (benches/swift-decode.sh): `WireDecoder` against Foundation's
// `JSONDecoder` on the same messages, in one run.

import PackageDescription

let package = Package(
  name: "DecodeBench",
  dependencies: [.package(name: "SymgenProtocols", path: "../../generated/swift")],
  targets: [
    .executableTarget(
      name: "DecodeBench",
      dependencies: [
        .product(name: "SymgenRuntime", package: "SymgenProtocols"),
        .product(name: "SymgenSymposium", package: "SymgenProtocols"),
        .product(name: "SymgenCk3lens", package: "SymgenProtocols"),
        .product(name: "SymgenWorkerSideband", package: "SymgenProtocols"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
