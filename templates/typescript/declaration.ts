{{ doc }}{{ declaration }}
