module signalwait

go 1.26
