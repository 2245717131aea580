module stdlibprobe

go 1.23
