module github.com/cbreach/cbreach

go 1.26.8

require github.com/dalzilio/rudd v1.1.1-0.20230806153452-9e08a6ea8170
