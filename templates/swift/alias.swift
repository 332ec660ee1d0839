{{ docs }}public typealias {{ name }} = {{ target }}
