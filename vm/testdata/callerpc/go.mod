module callerpc

go 1.26
